import {
  Card,
  CardContent,
  CardHeader,
  Chip,
  Grid,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Show, useShowContext } from 'react-admin';
import { useCan } from '../../auth/role';
import { BANNER_ONLY, ShowErrorBanner } from '../../components/Banners';
import { AccountStatus } from './AccountStatus';
import { AdjustCreditsForm } from './AdjustCreditsForm';
import { ApiTokensCard } from './ApiTokensCard';
import { ChangeTier } from './ChangeTier';
import { FaceChecksCard } from './FaceChecksCard';
import { Figure, when } from './figures';
import { RefusalsCard } from './RefusalsCard';
import { StaffRole } from './StaffRole';
import { useTierName } from './tiers';
import type { AdminUserDetailsDto as AdminUserDetails } from '@fitting-room/api-client';

function UserDetails() {
  const { record, refetch } = useShowContext<AdminUserDetails>();
  const canAdjust = useCan('user-credits', 'create');
  const canChangeTier = useCan('user-tier', 'edit');
  const tierName = useTierName(record?.tier);
  if (!record) return null;

  return (
    <Grid container spacing={2} sx={{ p: 2 }}>
      <Grid size={{ xs: 12, md: 6 }}>
        <Card variant="outlined" sx={{ height: '100%' }}>
          <CardHeader title="Profile" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
          <CardContent>
            <Typography>{record.full_name || '—'}</Typography>
            <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {record.email}
            </Typography>
            <Typography variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: 'anywhere' }}>
              ID {record.id} · since {when(record.created_at)}
            </Typography>
          </CardContent>
        </Card>
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <Card variant="outlined" sx={{ height: '100%' }}>
          <CardHeader title="Tier" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
          <CardContent>
            <Chip label={tierName} data-testid="user-tier" sx={{ mb: 2 }} />
            {canChangeTier && <ChangeTier key={record.tier} user={record} onChanged={() => void refetch()} />}
          </CardContent>
        </Card>
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <AccountStatus user={record} onChanged={() => void refetch()} />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <StaffRole key={record.role} user={record} onChanged={() => void refetch()} />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <Card variant="outlined">
          <CardHeader title="Credits" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
          <CardContent sx={{ display: 'flex', gap: 4, flexWrap: 'wrap' }}>
            <Figure label="Available" value={record.credits} testId="user-credits" />
            <Figure label="Subscription" value={record.subscription_credits} />
            <Figure label="Purchased" value={record.purchased_credits} />
          </CardContent>
        </Card>
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <Card variant="outlined">
          <CardHeader title="Generations" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
          <CardContent sx={{ display: 'flex', gap: 4, flexWrap: 'wrap' }}>
            <Figure label="Total" value={record.total_generations} />
            <Figure label="Successful" value={record.successful_generations} />
            <Figure label="Failed" value={record.failed_generations} />
            <Figure label="Cancelled" value={record.cancelled_generations} />
          </CardContent>
        </Card>
      </Grid>
      {record.refusals && (
        <Grid size={12}>
          <RefusalsCard refusals={record.refusals} />
        </Grid>
      )}
      {record.face_checks && (
        <Grid size={12}>
          <FaceChecksCard checks={record.face_checks} />
        </Grid>
      )}
      {canAdjust && (
        <Grid size={12}>
          <AdjustCreditsForm user={record} onAdjusted={() => void refetch()} />
        </Grid>
      )}
      <Grid size={12}>
        <ApiTokensCard userId={record.id} />
      </Grid>
      <Grid size={12}>
        <Card variant="outlined">
          <CardHeader title="Recent activity" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
          <CardContent>
            {record.recent_activity?.length ? (
              <TableContainer tabIndex={0} role="region" aria-label="Recent activity, scrollable">
                <Table size="small" aria-label="Recent activity">
                  <TableHead>
                    <TableRow>
                      <TableCell>When</TableCell>
                      <TableCell>Activity</TableCell>
                      <TableCell>Description</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {record.recent_activity.map((activity) => (
                      <TableRow key={activity.id}>
                        <TableCell>{when(activity.created_at)}</TableCell>
                        <TableCell>{activity.activity_type}</TableCell>
                        <TableCell>{activity.description}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            ) : (
              <Typography color="text.secondary">No activity yet.</Typography>
            )}
          </CardContent>
        </Card>
      </Grid>
    </Grid>
  );
}

/**
 * A user's details (docs/product.md): profile, tier (changed after a confirmation), account status
 * (with Suspend and Lift for admins), role (set by admins), credits, generation counts, refused
 * custom poses, face checks (the live selfie and its refusals), personal API tokens (revoked by admins), recent activity.
 */
export function UserShow() {
  return (
    // the app bar names the page; the address (long, on a phone) is in the Profile card, where it wraps
    <Show
      title="User"
      queryOptions={BANNER_ONLY}
      error={
        <ShowErrorBanner fallback="Failed to load user details">
          <UserDetails />
        </ShowErrorBanner>
      }
      actions={false}
    >
      <UserDetails />
    </Show>
  );
}
