@app.route("/")
@decorator(
)
def g(): ...
globals()["x"]
vars(o)
eval("1")
setattr(o, n, 1)
hasattr(o, n)
delattr(o, n)
