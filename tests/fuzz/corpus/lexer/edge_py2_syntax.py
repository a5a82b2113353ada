def f():
    exec "x=1"
    return 0777 <> `x`
