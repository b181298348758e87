// ConsoleAuth: accounts, sessions, CSRF, Origin (issue 26).
