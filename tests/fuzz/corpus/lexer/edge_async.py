async def f():
    await g()
    async with a as b, c:
        async for i in j: pass
await h()
