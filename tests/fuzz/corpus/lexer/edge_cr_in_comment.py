# noteBROKEN = 1 / 0
