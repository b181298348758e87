// ModuleSimulator
