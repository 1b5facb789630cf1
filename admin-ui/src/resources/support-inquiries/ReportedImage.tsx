import CheckIcon from '@mui/icons-material/Check';
import DoNotDisturbIcon from '@mui/icons-material/DoNotDisturb';
import { Alert, Box, Button, Card, CardContent, CardHeader, Chip, Stack, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Confirm, useDataProvider, useNotify } from 'react-admin';
import { useCan } from '../../auth/role';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import type { ReportCandidateDto, ReviewedResultDto, SupportInquiryDetailsDto } from '@fitting-room/api-client';

/** Side by side, the copy and a result are the same height: a mismatch shows at a glance. */
const PICTURE = { height: 240, maxWidth: '100%', objectFit: 'contain', borderRadius: 1, bgcolor: 'action.hover' } as const;

/** A picture from a signed link (a video plays muted); a grey tile saying why when there is none. */
function Picture({ url, type, label, missing }: { url: string | null; type?: 'image' | 'video' | null; label: string; missing: string }) {
  const [broken, setBroken] = useState(false);
  if (!url || broken) {
    return (
      <Box
        role="img"
        aria-label={`${label}: ${broken ? 'the picture could not be loaded' : missing}`}
        sx={{ ...PICTURE, width: 180, display: 'flex', alignItems: 'center', justifyContent: 'center', p: 1 }}
      >
        <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center' }}>
          {broken ? 'The picture could not be loaded (reload the ticket for a fresh link)' : missing}
        </Typography>
      </Box>
    );
  }
  if (type === 'video')
    return <Box component="video" src={url} aria-label={label} muted controls playsInline onError={() => setBroken(true)} sx={PICTURE} />;
  return <Box component="img" src={url} alt={label} onError={() => setBroken(true)} sx={PICTURE} />;
}

function Figure({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <Box component="figure" sx={{ m: 0 }}>
      {children}
      <Typography
        component="figcaption"
        variant="caption"
        color="text.secondary"
        sx={{ display: 'block', mt: 0.5, overflowWrap: 'anywhere' }}
      >
        {caption}
      </Typography>
    </Box>
  );
}

/** How alike a candidate is, in words an admin can weigh. */
function likeness(c: ReportCandidateDto): string {
  if (c.hash_distance !== null) return `${c.hash_distance} of 64 bits apart (older hash: compare closely)`;
  const shown = c.coverage === null ? '' : `, the copy shows ${Math.round(c.coverage * 100)}% of it`;
  return `${c.score}% of the picture agrees${shown}`;
}

function resultCaption(r: ReviewedResultDto): string {
  if (!r.exists) return `Generation ${r.generation_id} (gone)`;
  return `Generation ${r.generation_id}${r.created_at ? `, made ${new Date(r.created_at).toLocaleString()}` : ''}`;
}

const MATCH_WORDS: Partial<Record<SupportInquiryDetailsDto['image_match'], string>> = {
  hash: 'The copy matched this result, clearly ahead of every other stored result. Compare them before removing it.',
  candidates:
    'The copy looks like several results and none is clearly ahead: compare each with the copy and choose the right one, or none.',
  chosen: 'An admin chose this result among the candidates.',
  none: 'No stored result was chosen for this copy.',
};

/**
 * A report's copy beside the result it names, and beside each candidate it looked like: an admin
 * sees a mismatch before anything is removed, and chooses ("This one", "None of these") when the
 * copy named no result by itself. Support sees the copy and the figures, not other people's results.
 */
export function ReportedImage({ record, onChanged }: { record: SupportInquiryDetailsDto; onChanged: () => unknown }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const canChoose = useCan('generations', 'delete');
  const canSeeResults = useCan('generations', 'show');
  const [busy, setBusy] = useState(false);
  const [confirmNone, setConfirmNone] = useState(false);
  const candidates = record.image_candidates ?? [];
  const hasCopy = !!record.reported_image_url || !!record.reported_image_deleted_at;
  if (record.kind !== 'abuse_report' || (!hasCopy && candidates.length === 0 && !record.reported_generation)) return null;
  const open = !record.generation_removed_at && canChoose;

  const choose = async (generationId: string | null) => {
    setBusy(true);
    try {
      await dataProvider.chooseReportedGeneration(record.id, generationId);
      notify(generationId ? 'Result chosen: the ticket now names it' : 'Noted: none of the candidates is the reported image', {
        type: 'success',
      });
      void onChanged();
    } catch (error) {
      notify(error instanceof Error ? error.message : 'Failed to record the choice', { type: 'error' });
    } finally {
      setBusy(false);
      setConfirmNone(false);
    }
  };

  const copy = (
    <Picture
      url={record.reported_image_url}
      label="The copy the reporter sent"
      missing={
        record.reported_image_deleted_at
          ? `The copy was deleted ${new Date(record.reported_image_deleted_at).toLocaleString()}`
          : 'The reporter sent no copy'
      }
    />
  );
  const named = record.reported_generation;
  return (
    <Card variant="outlined" component="section" sx={{ mt: 2 }} aria-label="Reported image">
      <CardHeader title="Reported image" slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent>
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }} data-testid="reported-pair">
          <Figure caption="Copy sent by the reporter">{copy}</Figure>
          {named ? (
            <Figure caption={`Named result: ${resultCaption(named)}`}>
              <Picture
                url={named.result_url}
                type={named.type}
                label={`Named result ${named.generation_id}`}
                missing={!named.exists ? 'This result is gone' : canSeeResults ? 'No picture' : 'Only admins see the results'}
              />
            </Figure>
          ) : (
            <Figure caption="No result named yet">
              <Box sx={{ ...PICTURE, width: 180, display: 'flex', alignItems: 'center', justifyContent: 'center', p: 1 }}>
                <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center' }}>
                  {candidates.length ? 'Choose among the candidates below' : 'No stored result looks like the copy'}
                </Typography>
              </Box>
            </Figure>
          )}
        </Stack>
        {MATCH_WORDS[record.image_match] && (
          <Alert severity={record.image_match === 'candidates' ? 'warning' : 'info'} variant="outlined" sx={{ mt: 2 }}>
            {MATCH_WORDS[record.image_match]}
          </Alert>
        )}
        {candidates.length > 0 && (
          <Box sx={{ mt: 2 }}>
            <Typography component="h3" variant="subtitle1" sx={{ mb: 1 }}>
              Candidates ({candidates.length}), best first
            </Typography>
            <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Candidates">
              {candidates.map((c, i) => {
                const isNamed = record.generation_id === c.generation_id;
                return (
                  <Box
                    component="li"
                    key={c.generation_id}
                    aria-label={`Candidate ${i + 1}`}
                    data-generation={c.generation_id}
                    sx={{ p: 1.5, border: 1, borderRadius: 1, borderColor: isNamed ? 'primary.main' : 'divider' }}
                  >
                    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
                      <Figure caption="Copy sent">{copy}</Figure>
                      <Figure caption={resultCaption(c)}>
                        <Picture
                          url={c.result_url}
                          type={c.type}
                          label={`Candidate ${i + 1}: generation ${c.generation_id}`}
                          missing={!c.exists ? 'This result is gone' : canSeeResults ? 'No picture' : 'Only admins see the results'}
                        />
                      </Figure>
                      <Stack spacing={1} sx={{ minWidth: 180, flex: 1 }}>
                        <Typography variant="body2">{likeness(c)}</Typography>
                        {isNamed && <Chip size="small" color="primary" label="Named by the ticket" sx={{ alignSelf: 'flex-start' }} />}
                        {open && c.exists && !isNamed && (
                          <Button
                            variant="outlined"
                            startIcon={<CheckIcon />}
                            disabled={busy}
                            onClick={() => void choose(c.generation_id)}
                            sx={{ alignSelf: 'flex-start' }}
                            aria-label={`This one: generation ${c.generation_id}`}
                          >
                            This one
                          </Button>
                        )}
                      </Stack>
                    </Stack>
                  </Box>
                );
              })}
            </Stack>
            {open && record.image_match !== 'none' && (
              <>
                <Button
                  color="inherit"
                  startIcon={<DoNotDisturbIcon />}
                  disabled={busy}
                  onClick={() => setConfirmNone(true)}
                  sx={{ mt: 1.5 }}
                >
                  None of these
                </Button>
                <Confirm
                  isOpen={confirmNone}
                  loading={busy}
                  title="None of these is the reported image?"
                  content="The ticket will name no result; nothing is removed. You can still choose a candidate later."
                  confirm="None of these"
                  onClose={() => setConfirmNone(false)}
                  onConfirm={() => void choose(null)}
                />
              </>
            )}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
