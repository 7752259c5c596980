import { type AppConfig, ConfigError } from '../src/server/config.ts';

/** Bad configuration stops a command with one line naming the variable, not a stack trace. */
export function exitWithConfigError(load: () => AppConfig): AppConfig {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
