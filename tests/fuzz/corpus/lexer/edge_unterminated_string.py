"""unterminated
