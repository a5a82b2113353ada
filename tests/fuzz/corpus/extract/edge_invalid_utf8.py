x = "ÿþ café"
