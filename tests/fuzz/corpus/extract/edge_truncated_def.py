def f(
