def f():
    print "hi"
