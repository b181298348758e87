// WebConsole (issue 26).
