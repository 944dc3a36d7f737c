"""Engine interface, shared vocabulary and adapters for checking Guiñote engines."""
