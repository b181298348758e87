print("fpmod")
