// GPIO
