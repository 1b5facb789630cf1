export * from './app-error';
export * from './error-catalogue';
export * from './to-error-body';
export * from './app-exception.filter';
export * from './error-response.dto';
