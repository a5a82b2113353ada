lambda: (yield)
match x:
    case [1, *rest] if rest: pass
    case {"k": v, **kw}: pass
type X = int
