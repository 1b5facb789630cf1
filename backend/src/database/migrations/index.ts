import { Init1795273182371 } from './1795273182371-Init';

/** Every migration, in order. `npm run migration:generate -- <Name>` appends new ones here. */
export const MIGRATIONS: Function[] = [Init1795273182371];
