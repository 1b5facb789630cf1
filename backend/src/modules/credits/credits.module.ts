import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingStatusRepository } from '../billing/billing-status.repository';
import { planForTier } from '../catalog/plans';
import { CreditAccountEntity, CreditHoldEntity, CreditLedgerEntryEntity } from './credit.entities';
import { CreditsChangesSubscriber } from './credits-changes.subscriber';
import { CreditsResetJob } from './credits-reset.job';
import { CreditsRepository } from './credits.repository';
import { CreditsService, MONTHLY_CREDITS_FOR_TIER, MonthlyCreditsForTier, PAID_RENEWALS } from './credits.service';

/** The credit ledger (holds, captures, releases, adjustments, monthly reset). Global: many modules spend or show credits. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([CreditAccountEntity, CreditLedgerEntryEntity, CreditHoldEntity])],
  providers: [
    CreditsRepository,
    CreditsService,
    CreditsResetJob,
    // tells credits.changed once a transaction that wrote ledger entries has committed
    CreditsChangesSubscriber,
    // which accounts Stripe renews is billing's to answer, from its own tables (stateless: no module import)
    BillingStatusRepository,
    { provide: PAID_RENEWALS, useExisting: BillingStatusRepository },
    { provide: MONTHLY_CREDITS_FOR_TIER, useValue: ((tier: string) => planForTier(tier).monthlyCredits) satisfies MonthlyCreditsForTier },
  ],
  exports: [CreditsService, CreditsRepository],
})
export class CreditsModule {}
