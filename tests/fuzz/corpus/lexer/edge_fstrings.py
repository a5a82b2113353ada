x = f"{a!r:>{width}} {f'{b}'} {{lit}} {c.d[e]}"
y = rb"\\" u"x" Rb'''
multi'''
