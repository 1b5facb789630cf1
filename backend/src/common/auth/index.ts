export * from './auth-user';
export * from './authenticated.decorator';
export * from './current-user.decorator';
