// Generated from boards/*.json; keep identical (BoardPresetTests compares them byte for byte).
// To change a preset, edit its JSON file and copy it here between the #""" delimiters.

extension BoardPreset {
    /// The built-in presets as JSON text, by name, in the order they are listed to users.
    public static let builtInJSON: KeyValuePairs<String, String> = [
        "rpi3": #"""
        {
          "name": "rpi3",
          "description": "Raspberry Pi 3 Model B/B+/A+ (BCM2837), 40-pin header",
          "serialPort": "/dev/serial0",
          "serialNote": "/dev/serial0 is the primary UART on pins 8/10. On this board it is the mini UART /dev/ttyS0 while Bluetooth uses the PL011; the mini UART's baud rate follows the VPU core clock (enable_uart=1 pins core_freq to 250 MHz). For a stable UART put dtoverlay=disable-bt (and run systemctl disable hciuart) or dtoverlay=miniuart-bt in config.txt: serial0 then points at /dev/ttyAMA0 (PL011). Disable the login console on the port: raspi-config, Interface Options, Serial Port: No to the login shell, Yes to the hardware. The service user needs the dialout group.",
          "gpio": {
            "chip": "gpiochip0",
            "chipLabel": "pinctrl-bcm2835",
            "header": "rpi-40pin",
            "lineCount": 54,
            "lines": {
              "touch": {
                "offset": 17,
                "pin": 11,
                "note": "Module touch/wake-up output (R503 WAKEUP, AS608 WAK). Polarity comes from the module family: R503/R307 active-low, AS608 active-high."
              },
              "relay": {
                "offset": 18,
                "pin": 12,
                "activeLow": false,
                "note": "Drives a transistor or relay board, never a coil directly. Many opto-isolated relay boards are active-low: set activeLow true for those."
              },
              "exit-button": {
                "offset": 27,
                "pin": 13,
                "activeLow": true,
                "bias": "pull-up",
                "note": "Push button to GND (pin 14)."
              },
              "door-contact": {
                "offset": 22,
                "pin": 15,
                "activeLow": false,
                "bias": "pull-up",
                "note": "Reed switch to GND (pin 20), closed while the door is shut: active = door open."
              },
              "tamper": {
                "offset": 23,
                "pin": 16,
                "activeLow": false,
                "bias": "pull-up",
                "note": "Switch to GND (pin 25), closed while the enclosure is shut: active = enclosure opened."
              },
              "led-green": {
                "offset": 24,
                "pin": 18,
                "activeLow": false,
                "note": "330 ohm resistor, LED, GND (pin 30)."
              },
              "led-red": {
                "offset": 25,
                "pin": 22,
                "activeLow": false,
                "note": "330 ohm resistor, LED, GND (pin 34)."
              },
              "buzzer": {
                "offset": 5,
                "pin": 29,
                "activeLow": false,
                "note": "Through a transistor for buzzers drawing more than 10 mA; GND pin 39."
              },
              "module-power": {
                "offset": 6,
                "pin": 31,
                "activeLow": false,
                "note": "Enables a high-side load switch on the module's main supply (the R503 touch supply 3.3VT stays on)."
              }
            }
          },
          "wiring": [
            "Module GND -> pin 6 (GND).",
            "Module VCC -> pin 1 (3.3 V) for R503/R502; pin 2 (5 V) for R307/AS608/ZFM-20, whose UART must still be 3.3 V logic.",
            "Module TX -> pin 10 (GPIO15, RXD); module RX -> pin 8 (GPIO14, TXD). Swapped TX/RX is the most common fault.",
            "Module touch output -> pin 11 (GPIO17); R503 touch supply (3.3VT) -> pin 17 (3.3 V), always on.",
            "Relay driver input -> pin 12 (GPIO18).",
            "Exit button between pin 13 (GPIO27) and pin 14 (GND).",
            "Door reed contact between pin 15 (GPIO22) and pin 20 (GND).",
            "Tamper switch between pin 16 (GPIO23) and pin 25 (GND).",
            "Green LED from pin 18 (GPIO24), red LED from pin 22 (GPIO25), each through 330 ohm to GND (pins 30, 34).",
            "Buzzer driver from pin 29 (GPIO5); module power switch from pin 31 (GPIO6)."
          ],
          "spi": {
            "device": "/dev/spidev0.0",
            "mosi": { "offset": 10, "pin": 19 },
            "miso": { "offset": 9, "pin": 21 },
            "sclk": { "offset": 11, "pin": 23 },
            "chipSelect": { "offset": 8, "pin": 24, "note": "CE0, /dev/spidev0.0. For CE1 (GPIO7, pin 26) use /dev/spidev0.1." },
            "irq": { "offset": 26, "pin": 37, "note": "Sensor IRQ output, active high (finger down, image ready, reset done)." },
            "reset": { "offset": 16, "pin": 36, "activeLow": true, "note": "Sensor RST input, active low." },
            "note": "SPI0 needs dtparam=spi=on in config.txt (raspi-config, Interface Options, SPI) and a reboot; then /dev/spidev0.0 and /dev/spidev0.1 exist, root:spi 0660, so the service user needs the spi group. spidev moves at most 4096 bytes a message unless spidev.bufsiz=65536 is on the kernel command line (cmdline.txt); a 192x192 image is then read in one message instead of ten.",
            "wiring": [
              "Sensor GND -> pin 25 (GND); sensor VCC -> pin 17 (3.3 V). The FPC1020 is a 3.3 V part: never 5 V.",
              "Sensor MOSI -> pin 19 (GPIO10); sensor MISO -> pin 21 (GPIO9); sensor SCK -> pin 23 (GPIO11); sensor CS -> pin 24 (GPIO8, CE0).",
              "Sensor IRQ -> pin 37 (GPIO26); sensor RST -> pin 36 (GPIO16).",
              "Keep the SPI wires short (under 10 cm) or lower the speed (fpmod sensor probe --speed 1000000)."
            ]
          }
        }
        """# + "\n",
        "rpi4": #"""
        {
          "name": "rpi4",
          "description": "Raspberry Pi 4 Model B / Pi 400 (BCM2711), 40-pin header",
          "serialPort": "/dev/serial0",
          "serialNote": "/dev/serial0 is the primary UART on pins 8/10. On this board it is the mini UART /dev/ttyS0 while Bluetooth uses the PL011; the mini UART's baud rate follows the VPU core clock (enable_uart=1 pins core_freq to 250 MHz). For a stable UART put dtoverlay=disable-bt (and run systemctl disable hciuart) or dtoverlay=miniuart-bt in config.txt: serial0 then points at /dev/ttyAMA0 (PL011). Disable the login console on the port: raspi-config, Interface Options, Serial Port: No to the login shell, Yes to the hardware. The service user needs the dialout group.",
          "gpio": {
            "chip": "gpiochip0",
            "chipLabel": "pinctrl-bcm2711",
            "header": "rpi-40pin",
            "lineCount": 58,
            "lines": {
              "touch": {
                "offset": 17,
                "pin": 11,
                "note": "Module touch/wake-up output (R503 WAKEUP, AS608 WAK). Polarity comes from the module family: R503/R307 active-low, AS608 active-high."
              },
              "relay": {
                "offset": 18,
                "pin": 12,
                "activeLow": false,
                "note": "Drives a transistor or relay board, never a coil directly. Many opto-isolated relay boards are active-low: set activeLow true for those."
              },
              "exit-button": {
                "offset": 27,
                "pin": 13,
                "activeLow": true,
                "bias": "pull-up",
                "note": "Push button to GND (pin 14)."
              },
              "door-contact": {
                "offset": 22,
                "pin": 15,
                "activeLow": false,
                "bias": "pull-up",
                "note": "Reed switch to GND (pin 20), closed while the door is shut: active = door open."
              },
              "tamper": {
                "offset": 23,
                "pin": 16,
                "activeLow": false,
                "bias": "pull-up",
                "note": "Switch to GND (pin 25), closed while the enclosure is shut: active = enclosure opened."
              },
              "led-green": {
                "offset": 24,
                "pin": 18,
                "activeLow": false,
                "note": "330 ohm resistor, LED, GND (pin 30)."
              },
              "led-red": {
                "offset": 25,
                "pin": 22,
                "activeLow": false,
                "note": "330 ohm resistor, LED, GND (pin 34)."
              },
              "buzzer": {
                "offset": 5,
                "pin": 29,
                "activeLow": false,
                "note": "Through a transistor for buzzers drawing more than 10 mA; GND pin 39."
              },
              "module-power": {
                "offset": 6,
                "pin": 31,
                "activeLow": false,
                "note": "Enables a high-side load switch on the module's main supply (the R503 touch supply 3.3VT stays on)."
              }
            }
          },
          "wiring": [
            "Module GND -> pin 6 (GND).",
            "Module VCC -> pin 1 (3.3 V) for R503/R502; pin 2 (5 V) for R307/AS608/ZFM-20, whose UART must still be 3.3 V logic.",
            "Module TX -> pin 10 (GPIO15, RXD); module RX -> pin 8 (GPIO14, TXD). Swapped TX/RX is the most common fault.",
            "Module touch output -> pin 11 (GPIO17); R503 touch supply (3.3VT) -> pin 17 (3.3 V), always on.",
            "Relay driver input -> pin 12 (GPIO18).",
            "Exit button between pin 13 (GPIO27) and pin 14 (GND).",
            "Door reed contact between pin 15 (GPIO22) and pin 20 (GND).",
            "Tamper switch between pin 16 (GPIO23) and pin 25 (GND).",
            "Green LED from pin 18 (GPIO24), red LED from pin 22 (GPIO25), each through 330 ohm to GND (pins 30, 34).",
            "Buzzer driver from pin 29 (GPIO5); module power switch from pin 31 (GPIO6)."
          ],
          "spi": {
            "device": "/dev/spidev0.0",
            "mosi": { "offset": 10, "pin": 19 },
            "miso": { "offset": 9, "pin": 21 },
            "sclk": { "offset": 11, "pin": 23 },
            "chipSelect": { "offset": 8, "pin": 24, "note": "CE0, /dev/spidev0.0. For CE1 (GPIO7, pin 26) use /dev/spidev0.1." },
            "irq": { "offset": 26, "pin": 37, "note": "Sensor IRQ output, active high (finger down, image ready, reset done)." },
            "reset": { "offset": 16, "pin": 36, "activeLow": true, "note": "Sensor RST input, active low." },
            "note": "SPI0 needs dtparam=spi=on in config.txt (raspi-config, Interface Options, SPI) and a reboot; then /dev/spidev0.0 and /dev/spidev0.1 exist, root:spi 0660, so the service user needs the spi group. spidev moves at most 4096 bytes a message unless spidev.bufsiz=65536 is on the kernel command line (cmdline.txt); a 192x192 image is then read in one message instead of ten.",
            "wiring": [
              "Sensor GND -> pin 25 (GND); sensor VCC -> pin 17 (3.3 V). The FPC1020 is a 3.3 V part: never 5 V.",
              "Sensor MOSI -> pin 19 (GPIO10); sensor MISO -> pin 21 (GPIO9); sensor SCK -> pin 23 (GPIO11); sensor CS -> pin 24 (GPIO8, CE0).",
              "Sensor IRQ -> pin 37 (GPIO26); sensor RST -> pin 36 (GPIO16).",
              "Keep the SPI wires short (under 10 cm) or lower the speed (fpmod sensor probe --speed 1000000)."
            ]
          }
        }
        """# + "\n",
        "rpi-zero2w": #"""
        {
          "name": "rpi-zero2w",
          "description": "Raspberry Pi Zero 2 W (RP3A0 / BCM2710A1), 40-pin header",
          "serialPort": "/dev/serial0",
          "serialNote": "/dev/serial0 is the primary UART on pins 8/10. On this board it is the mini UART /dev/ttyS0 while Bluetooth uses the PL011; the mini UART's baud rate follows the VPU core clock (enable_uart=1 pins core_freq to 250 MHz). For a stable UART put dtoverlay=disable-bt (and run systemctl disable hciuart) or dtoverlay=miniuart-bt in config.txt: serial0 then points at /dev/ttyAMA0 (PL011). Disable the login console on the port: raspi-config, Interface Options, Serial Port: No to the login shell, Yes to the hardware. The service user needs the dialout group.",
          "gpio": {
            "chip": "gpiochip0",
            "chipLabel": "pinctrl-bcm2835",
            "header": "rpi-40pin",
            "lineCount": 54,
            "lines": {
              "touch": {
                "offset": 17,
                "pin": 11,
                "note": "Module touch/wake-up output (R503 WAKEUP, AS608 WAK). Polarity comes from the module family: R503/R307 active-low, AS608 active-high."
              },
              "relay": {
                "offset": 18,
                "pin": 12,
                "activeLow": false,
                "note": "Drives a transistor or relay board, never a coil directly. Many opto-isolated relay boards are active-low: set activeLow true for those."
              },
              "exit-button": {
                "offset": 27,
                "pin": 13,
                "activeLow": true,
                "bias": "pull-up",
                "note": "Push button to GND (pin 14)."
              },
              "door-contact": {
                "offset": 22,
                "pin": 15,
                "activeLow": false,
                "bias": "pull-up",
                "note": "Reed switch to GND (pin 20), closed while the door is shut: active = door open."
              },
              "tamper": {
                "offset": 23,
                "pin": 16,
                "activeLow": false,
                "bias": "pull-up",
                "note": "Switch to GND (pin 25), closed while the enclosure is shut: active = enclosure opened."
              },
              "led-green": {
                "offset": 24,
                "pin": 18,
                "activeLow": false,
                "note": "330 ohm resistor, LED, GND (pin 30)."
              },
              "led-red": {
                "offset": 25,
                "pin": 22,
                "activeLow": false,
                "note": "330 ohm resistor, LED, GND (pin 34)."
              },
              "buzzer": {
                "offset": 5,
                "pin": 29,
                "activeLow": false,
                "note": "Through a transistor for buzzers drawing more than 10 mA; GND pin 39."
              },
              "module-power": {
                "offset": 6,
                "pin": 31,
                "activeLow": false,
                "note": "Enables a high-side load switch on the module's main supply (the R503 touch supply 3.3VT stays on)."
              }
            }
          },
          "wiring": [
            "Module GND -> pin 6 (GND).",
            "Module VCC -> pin 1 (3.3 V) for R503/R502; pin 2 (5 V) for R307/AS608/ZFM-20, whose UART must still be 3.3 V logic.",
            "Module TX -> pin 10 (GPIO15, RXD); module RX -> pin 8 (GPIO14, TXD). Swapped TX/RX is the most common fault.",
            "Module touch output -> pin 11 (GPIO17); R503 touch supply (3.3VT) -> pin 17 (3.3 V), always on.",
            "Relay driver input -> pin 12 (GPIO18).",
            "Exit button between pin 13 (GPIO27) and pin 14 (GND).",
            "Door reed contact between pin 15 (GPIO22) and pin 20 (GND).",
            "Tamper switch between pin 16 (GPIO23) and pin 25 (GND).",
            "Green LED from pin 18 (GPIO24), red LED from pin 22 (GPIO25), each through 330 ohm to GND (pins 30, 34).",
            "Buzzer driver from pin 29 (GPIO5); module power switch from pin 31 (GPIO6)."
          ],
          "spi": {
            "device": "/dev/spidev0.0",
            "mosi": { "offset": 10, "pin": 19 },
            "miso": { "offset": 9, "pin": 21 },
            "sclk": { "offset": 11, "pin": 23 },
            "chipSelect": { "offset": 8, "pin": 24, "note": "CE0, /dev/spidev0.0. For CE1 (GPIO7, pin 26) use /dev/spidev0.1." },
            "irq": { "offset": 26, "pin": 37, "note": "Sensor IRQ output, active high (finger down, image ready, reset done)." },
            "reset": { "offset": 16, "pin": 36, "activeLow": true, "note": "Sensor RST input, active low." },
            "note": "SPI0 needs dtparam=spi=on in config.txt (raspi-config, Interface Options, SPI) and a reboot; then /dev/spidev0.0 and /dev/spidev0.1 exist, root:spi 0660, so the service user needs the spi group. spidev moves at most 4096 bytes a message unless spidev.bufsiz=65536 is on the kernel command line (cmdline.txt); a 192x192 image is then read in one message instead of ten.",
            "wiring": [
              "Sensor GND -> pin 25 (GND); sensor VCC -> pin 17 (3.3 V). The FPC1020 is a 3.3 V part: never 5 V.",
              "Sensor MOSI -> pin 19 (GPIO10); sensor MISO -> pin 21 (GPIO9); sensor SCK -> pin 23 (GPIO11); sensor CS -> pin 24 (GPIO8, CE0).",
              "Sensor IRQ -> pin 37 (GPIO26); sensor RST -> pin 36 (GPIO16).",
              "Keep the SPI wires short (under 10 cm) or lower the speed (fpmod sensor probe --speed 1000000)."
            ]
          }
        }
        """# + "\n",
        "rpi5": #"""
        {
          "name": "rpi5",
          "description": "Raspberry Pi 5 (BCM2712 + RP1), 40-pin header",
          "serialPort": "/dev/ttyAMA0",
          "serialNote": "Pins 8/10 are uart0, /dev/ttyAMA0, once enabled: dtparam=uart0=on (or dtoverlay=uart0-pi5) in /boot/firmware/config.txt, or raspi-config's serial option. /dev/serial0 on a Pi 5 is /dev/ttyAMA10, the 3-pin debug connector, not pins 8/10. There is no mini UART. If serial-getty@ttyAMA0 keeps taking the port: systemctl mask serial-getty@ttyAMA0. The header GPIOs are the RP1 chip, label pinctrl-rp1: gpiochip0 on kernels from 6.6.45, gpiochip4 before; the preset finds it by label.",
          "gpio": {
            "chip": "gpiochip0",
            "chipLabel": "pinctrl-rp1",
            "header": "rpi-40pin",
            "lineCount": 54,
            "lines": {
              "touch": {
                "offset": 17,
                "pin": 11,
                "note": "Module touch/wake-up output (R503 WAKEUP, AS608 WAK). Polarity comes from the module family: R503/R307 active-low, AS608 active-high."
              },
              "relay": {
                "offset": 18,
                "pin": 12,
                "activeLow": false,
                "note": "Drives a transistor or relay board, never a coil directly. Many opto-isolated relay boards are active-low: set activeLow true for those."
              },
              "exit-button": {
                "offset": 27,
                "pin": 13,
                "activeLow": true,
                "bias": "pull-up",
                "note": "Push button to GND (pin 14)."
              },
              "door-contact": {
                "offset": 22,
                "pin": 15,
                "activeLow": false,
                "bias": "pull-up",
                "note": "Reed switch to GND (pin 20), closed while the door is shut: active = door open."
              },
              "tamper": {
                "offset": 23,
                "pin": 16,
                "activeLow": false,
                "bias": "pull-up",
                "note": "Switch to GND (pin 25), closed while the enclosure is shut: active = enclosure opened."
              },
              "led-green": {
                "offset": 24,
                "pin": 18,
                "activeLow": false,
                "note": "330 ohm resistor, LED, GND (pin 30)."
              },
              "led-red": {
                "offset": 25,
                "pin": 22,
                "activeLow": false,
                "note": "330 ohm resistor, LED, GND (pin 34)."
              },
              "buzzer": {
                "offset": 5,
                "pin": 29,
                "activeLow": false,
                "note": "Through a transistor for buzzers drawing more than 10 mA; GND pin 39."
              },
              "module-power": {
                "offset": 6,
                "pin": 31,
                "activeLow": false,
                "note": "Enables a high-side load switch on the module's main supply (the R503 touch supply 3.3VT stays on)."
              }
            }
          },
          "wiring": [
            "Module GND -> pin 6 (GND).",
            "Module VCC -> pin 1 (3.3 V) for R503/R502; pin 2 (5 V) for R307/AS608/ZFM-20, whose UART must still be 3.3 V logic.",
            "Module TX -> pin 10 (GPIO15, RXD); module RX -> pin 8 (GPIO14, TXD). Swapped TX/RX is the most common fault.",
            "Module touch output -> pin 11 (GPIO17); R503 touch supply (3.3VT) -> pin 17 (3.3 V), always on.",
            "Relay driver input -> pin 12 (GPIO18).",
            "Exit button between pin 13 (GPIO27) and pin 14 (GND).",
            "Door reed contact between pin 15 (GPIO22) and pin 20 (GND).",
            "Tamper switch between pin 16 (GPIO23) and pin 25 (GND).",
            "Green LED from pin 18 (GPIO24), red LED from pin 22 (GPIO25), each through 330 ohm to GND (pins 30, 34).",
            "Buzzer driver from pin 29 (GPIO5); module power switch from pin 31 (GPIO6)."
          ],
          "spi": {
            "device": "/dev/spidev0.0",
            "mosi": { "offset": 10, "pin": 19 },
            "miso": { "offset": 9, "pin": 21 },
            "sclk": { "offset": 11, "pin": 23 },
            "chipSelect": { "offset": 8, "pin": 24, "note": "CE0, /dev/spidev0.0. For CE1 (GPIO7, pin 26) use /dev/spidev0.1." },
            "irq": { "offset": 26, "pin": 37, "note": "Sensor IRQ output, active high (finger down, image ready, reset done)." },
            "reset": { "offset": 16, "pin": 36, "activeLow": true, "note": "Sensor RST input, active low." },
            "note": "SPI0 needs dtparam=spi=on in config.txt (raspi-config, Interface Options, SPI) and a reboot; then /dev/spidev0.0 and /dev/spidev0.1 exist, root:spi 0660, so the service user needs the spi group. spidev moves at most 4096 bytes a message unless spidev.bufsiz=65536 is on the kernel command line (cmdline.txt); a 192x192 image is then read in one message instead of ten.",
            "wiring": [
              "Sensor GND -> pin 25 (GND); sensor VCC -> pin 17 (3.3 V). The FPC1020 is a 3.3 V part: never 5 V.",
              "Sensor MOSI -> pin 19 (GPIO10); sensor MISO -> pin 21 (GPIO9); sensor SCK -> pin 23 (GPIO11); sensor CS -> pin 24 (GPIO8, CE0).",
              "Sensor IRQ -> pin 37 (GPIO26); sensor RST -> pin 36 (GPIO16).",
              "Keep the SPI wires short (under 10 cm) or lower the speed (fpmod sensor probe --speed 1000000)."
            ]
          }
        }
        """# + "\n",
        "usb-serial": #"""
        {
          "name": "usb-serial",
          "description": "Any Linux machine with a USB-serial adapter (CP2102, CH340, FT232), no GPIO",
          "serialPort": "/dev/ttyUSB0",
          "serialNote": "CDC-ACM adapters appear as /dev/ttyACM0. Prefer the stable /dev/serial/by-id/ path when more than one adapter is plugged in. The adapter must use 3.3 V logic for 3.3 V modules. The service user needs the dialout group.",
          "wiring": [
            "Module GND -> adapter GND; module VCC -> adapter 3.3 V (R503/R502) or 5 V (R307/AS608).",
            "Module TX -> adapter RXD; module RX -> adapter TXD.",
            "No touch line, relay, button or LEDs: fpmod polls the module for a finger instead of waiting for a touch edge."
          ]
        }
        """# + "\n",
        "gpio-vm": #"""
        {
          "name": "gpio-vm",
          "description": "The gpio-vm test VM: a gpio-sim chip with 16 lines and a 16550 UART on /dev/ttyS1",
          "serialPort": "/dev/ttyS1",
          "serialNote": "Connected to a host pty with run.sh --serial-pty; QEMU does not pace bytes to the baud rate.",
          "gpio": {
            "chip": "gpiochip0",
            "chipLabel": "gpio-vm",
            "lineCount": 16,
            "lines": {
              "touch": {
                "offset": 0,
                "name": "touch",
                "note": "Polarity from the module family; every sim line starts pulled down, so an active-low touch line reads 'finger present' until the test pulls it up."
              },
              "relay": {
                "offset": 1,
                "name": "relay",
                "activeLow": false
              },
              "exit-button": {
                "offset": 2,
                "name": "exit-button",
                "activeLow": false,
                "note": "Pressed = echo pull-up > $GPIO_SIM_DIR/sim_gpio2/pull."
              },
              "door-contact": {
                "offset": 3,
                "name": "door-contact",
                "activeLow": false
              },
              "tamper": {
                "offset": 4,
                "name": "tamper",
                "activeLow": false
              },
              "led-green": {
                "offset": 5,
                "name": "led-green",
                "activeLow": false
              },
              "led-red": {
                "offset": 6,
                "name": "led-red",
                "activeLow": false
              },
              "buzzer": {
                "offset": 7,
                "name": "buzzer",
                "activeLow": false
              },
              "module-power": {
                "offset": 8,
                "name": "module-power",
                "activeLow": false
              }
            }
          },
          "wiring": [
            "No wiring: inputs are driven by writing pull-up or pull-down to $GPIO_SIM_DIR/sim_gpioN/pull, outputs read from $GPIO_SIM_DIR/sim_gpioN/value.",
            "Inputs are active-high here (the simulator has no active-low setting), and no bias is requested, so the test's pull decides the level."
          ]
        }
        """# + "\n",
    ]
}
