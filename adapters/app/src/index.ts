// Composition root: build a Switchyard from config (used by main.ts, the tests and the benchmarks).
export { createSwitchyard, type Switchyard } from './switchyard.js';
export { loadConfig, validateConfig, deepMerge, ConfigError, type Config } from './config.js';
export { createLogger, type Logger } from './logger.js';
export { PROJECT_ROOT } from './paths.js';
