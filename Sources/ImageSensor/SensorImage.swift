import Imaging

/// An 8-bit grey image as a sensor delivers it: the imaging target's `GreyImage` (row by row,
/// 0 black), one type from the sensor through the simulator to the matcher. The name stays
/// because it reads well in sensor code.
public typealias SensorImage = GreyImage
