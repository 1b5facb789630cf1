import { UserEntity } from '../modules/users/user.entity';

/** Every TypeORM entity of the app, listed once (no globs: the same list works under Jest and in dist). */
export const ENTITIES = [UserEntity];
