import PN532
