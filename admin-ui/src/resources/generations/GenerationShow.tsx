import { Box, Card, CardContent, CardHeader, Chip, CircularProgress, Typography } from '@mui/material';
import { Show, useShowContext } from 'react-admin';
import { BANNER_ONLY, ShowErrorBanner } from '../../components/Banners';
import type { AdminGenerationDto } from '@fitting-room/api-client';
import type { ReactNode } from 'react';

const titleProps = { title: { variant: 'h6', component: 'h2' } } as const;

const OUTCOME_LABEL: Record<string, string> = {
  passed: 'Looks like the person',
  retried: 'Too far: tried once more',
  failed: 'Too far twice: failed, credits released',
  no_face: 'No face in the result',
};

/** A distance as the console shows it: two decimals, or "no face". */
export function formatDistance(distance: number | null | undefined): string {
  return distance === null || distance === undefined ? 'no face' : distance.toFixed(2);
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </>
  );
}

const dl = { m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5 } as const;

/** The likeness guard's figure ("Only you", docs/safety.md): each try's distance against the threshold. */
export function LikenessCard({ likeness }: { likeness: AdminGenerationDto['likeness'] | undefined }) {
  return (
    <Card variant="outlined" data-likeness-card="">
      <CardHeader title="Likeness" slotProps={titleProps} />
      <CardContent sx={{ pt: 0 }}>
        {likeness === undefined ? (
          // the list's row, until the generation itself arrives with its likeness
          <CircularProgress size={24} aria-label="Loading the likeness" />
        ) : likeness ? (
          <Box component="dl" sx={dl}>
            <Row label="Outcome">
              <Chip
                size="small"
                variant="outlined"
                color={likeness.outcome === 'passed' ? 'success' : likeness.outcome === 'no_face' ? 'default' : 'error'}
                label={OUTCOME_LABEL[likeness.outcome] ?? likeness.outcome}
              />
            </Row>
            <Row label="Distance">
              {formatDistance(likeness.distance)} (at most {likeness.threshold.toFixed(2)} passes; smaller is closer)
            </Row>
            <Row label="Tries">{likeness.tries.map(formatDistance).join(', ')}</Row>
          </Box>
        ) : (
          <Typography color="text.secondary">No face check ran on this result (face checks off, no face kept, or not finished).</Typography>
        )}
      </CardContent>
    </Card>
  );
}

function Generation() {
  // until the generation itself arrives, the record is the list's row (no likeness yet)
  const { record } = useShowContext<Omit<AdminGenerationDto, 'likeness'> & { likeness?: AdminGenerationDto['likeness'] }>();
  if (!record) return null;
  return (
    <Box sx={{ p: 2, display: 'grid', gap: 2 }}>
      <Card variant="outlined">
        <CardHeader title={`${record.category ?? record.type} · ${record.status}`} slotProps={titleProps} />
        <CardContent sx={{ pt: 0 }}>
          <Box component="dl" sx={dl}>
            <Row label="User">{record.user_email}</Row>
            <Row label="Type">{record.type}</Row>
            <Row label="Cost">{record.cost}</Row>
            <Row label="Created">{new Date(record.created_at).toLocaleString()}</Row>
            {record.failure_reason ? <Row label="Failure reason">{record.failure_reason}</Row> : null}
          </Box>
        </CardContent>
      </Card>
      <LikenessCard likeness={record.likeness} />
    </Box>
  );
}

/** One generation (admin): its row, and the likeness guard's figure of its result. */
export function GenerationShow() {
  return (
    <Show
      error={
        <ShowErrorBanner>
          <Generation />
        </ShowErrorBanner>
      }
      queryOptions={BANNER_ONLY}
    >
      <Generation />
    </Show>
  );
}
