import { type AppConfig, ConfigError } from '../src/server/config.ts';
import { type Database, openDatabase } from '../src/server/db/client.ts';

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

/**
 * The database a command works on. With the embedded database and the shop running, the command
 * reaches the shop's own database through its socket (so nothing it writes is lost); a folder another
 * process owns is refused with one line (issue 16).
 */
export async function openCommandDatabase(config: AppConfig): Promise<Database> {
  try {
    return await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, role: 'tool' });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
