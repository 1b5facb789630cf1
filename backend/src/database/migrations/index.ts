import { Init1795273182371 } from './1795273182371-Init';
import { Accounts1795274586146 } from './1795274586146-Accounts';
import { CreditLedger1795275740213 } from './1795275740213-CreditLedger';
import { Generations1795277846347 } from './1795277846347-Generations';
import { AuditLog1795287359069 } from './1795287359069-AuditLog';
import { NotificationsSupport1795288036388 } from './1795288036388-NotificationsSupport';
import { AdminFromList1795294930707 } from './1795294930707-AdminFromList';

/** Every migration, in order. `npm run migration:generate -- <Name>` appends new ones here. */
export const MIGRATIONS: Function[] = [Init1795273182371, Accounts1795274586146, CreditLedger1795275740213, Generations1795277846347, AuditLog1795287359069, NotificationsSupport1795288036388, AdminFromList1795294930707];
