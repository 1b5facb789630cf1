import { Global, Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/** The audit trail, available to every module that acts on someone's behalf. */
@Global()
@Module({ imports: [UsersModule], providers: [AuditRepository, AuditService], exports: [AuditService, AuditRepository] })
export class AuditModule {}
