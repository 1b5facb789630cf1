export * from './simple-rest';
