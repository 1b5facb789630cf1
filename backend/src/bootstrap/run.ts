import { ConfigurationError } from '../config/app-config';

/** Runs an entry point; a bad configuration or a failed start ends the process with a clear message. */
export function run(main: () => Promise<unknown>): void {
  main().catch((error: unknown) => {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`${error.message}\nSee docs/configuration.md and .env.example.\n`);
      process.exit(78); // EX_CONFIG
    }
    process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
