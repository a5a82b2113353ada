 def f(): pass
