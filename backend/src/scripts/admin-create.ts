import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { run } from '../bootstrap/run';
import { loadConfig } from '../config/app-config';
import { generatePassword, UsersService } from '../modules/users/users.service';

/**
 * `npm run admin:create -- --email someone@example.com [--password ...] [--name "Full Name"]`
 * Creates an admin account (or promotes an existing one). Without --password a strong one is
 * generated and printed once.
 */
function argument(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return args[i].includes('=') ? args[i].slice(args[i].indexOf('=') + 1) : args[i + 1];
}

run(async () => {
  const email = argument('email');
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    process.stderr.write(
      'Usage: npm run admin:create -- --email you@example.com [--password <at least 8 characters>] [--name "Full Name"]\n',
    );
    process.exit(64);
  }
  const given = argument('password');
  if (given !== undefined && (given.length < 8 || given.length > 128)) {
    process.stderr.write('The password must be 8 to 128 characters long.\n');
    process.exit(64);
  }
  const config = { ...loadConfig(), serveUi: false };
  config.queue = { ...config.queue, consumeInApi: false };
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, 'api'), { logger: ['error'] });
  try {
    const password = given ?? generatePassword();
    const { user, created } = await app.get(UsersService).upsertAdmin(email, password, argument('name') ?? 'Administrator');
    process.stdout.write(`${created ? 'Created' : 'Promoted'} admin ${user.email}${given ? '' : `\npassword: ${password}`}\n`);
  } finally {
    await app.close();
  }
});
