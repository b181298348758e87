// DoorLock
