export * from './ops-events';
