import DeleteIcon from '@mui/icons-material/Delete';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Checkbox,
  Chip,
  Divider,
  FormControlLabel,
  Grid,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Confirm, RecordContextProvider, Show, useDataProvider, useNotify, useShowContext, useUpdate } from 'react-admin';
import { useCan } from '../../auth/role';
import { BANNER_ONLY, ShowErrorBanner } from '../../components/Banners';
import { AgeField, KindField, PRIORITY_CHOICES, PriorityField, StatusField, type InquiryRecord, type InquiryStatus } from './fields';
import { ReportedImage } from './ReportedImage';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import type { SupportInquiryDetailsDto, SupportMessageDto as SupportMessage } from '@fitting-room/api-client';

const IMAGE_MATCH_LABELS = {
  id: 'the generation id the reporter gave',
  link: 'a link in the report',
  metadata: 'the uploaded copy (its embedded marks)',
  hash: 'the uploaded copy (its picture matched one result, clearly ahead of every other)',
  candidates: 'nothing yet: the uploaded copy looks like several results (choose below)',
  chosen: 'the uploaded copy, compared by an admin with the candidates',
} as const;

type InquiryDetails = InquiryRecord & Partial<SupportInquiryDetailsDto> & { messages?: SupportMessage[] };

/** The workflow: open -> in_progress -> resolved -> closed, and resolved -> in_progress (reopen). */
const MOVES: Record<InquiryStatus, { to: InquiryStatus; label: string }[]> = {
  open: [{ to: 'in_progress', label: 'Start' }],
  in_progress: [{ to: 'resolved', label: 'Resolve' }],
  resolved: [
    { to: 'closed', label: 'Close' },
    { to: 'in_progress', label: 'Reopen' },
  ],
  closed: [],
};

function useSave(record: InquiryDetails, refetch: () => unknown) {
  const notify = useNotify();
  const [update, { isPending }] = useUpdate();
  const save = (data: Partial<Pick<InquiryRecord, 'status' | 'priority'>>, done: string) =>
    update(
      'support-inquiries',
      { id: record.id, data, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(done, { type: 'success' });
          void refetch();
        },
        onError: (error) => notify(error instanceof Error ? error.message : 'Failed to update the ticket', { type: 'error' }),
      },
    );
  return { save, isPending };
}

function Workflow({ record, refetch }: { record: InquiryDetails; refetch: () => unknown }) {
  const { save, isPending } = useSave(record, refetch);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
      {MOVES[record.status].map((move) => (
        <Button
          key={move.label}
          variant={move.label === 'Reopen' ? 'outlined' : 'contained'}
          disabled={isPending}
          onClick={() => save({ status: move.to }, `Ticket moved to ${move.to.replace('_', ' ')}`)}
        >
          {move.label}
        </Button>
      ))}
      <TextField
        select
        size="small"
        label="Priority"
        value={record.priority}
        disabled={isPending}
        onChange={(e) => save({ priority: e.target.value as InquiryRecord['priority'] }, 'Priority changed')}
        sx={{ minWidth: 140 }}
      >
        {PRIORITY_CHOICES.map((choice) => (
          <MenuItem key={choice.id} value={choice.id}>
            {choice.name}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}

const DELIVERY = { queued: 'being mailed', sent: 'mailed', failed: 'mail failed', logged: 'logged (mail not configured)' } as const;

function Thread({ messages }: { messages: SupportMessage[] }) {
  if (messages.length === 0) return <Typography color="text.secondary">No replies or notes yet.</Typography>;
  return (
    <Stack spacing={1.5} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Thread">
      {messages.map((message) => (
        <Box
          component="li"
          key={message.id}
          sx={{
            p: 1.5,
            borderRadius: 1,
            border: 1,
            borderColor: message.kind === 'note' ? 'warning.light' : 'divider',
            bgcolor: message.kind === 'note' ? 'rgba(237, 108, 2, 0.06)' : 'background.paper',
          }}
        >
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
            <Chip
              size="small"
              label={message.kind === 'note' ? 'Internal note' : 'Reply'}
              color={message.kind === 'note' ? 'warning' : 'primary'}
              variant="outlined"
            />
            <Typography variant="caption" color="text.secondary">
              {message.author_email ?? 'unknown'} · {new Date(message.created_at).toLocaleString()}
              {message.delivered && ` · ${DELIVERY[message.delivered]}`}
              {message.delivery_error && ` (${message.delivery_error})`}
            </Typography>
          </Stack>
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{message.body}</Typography>
        </Box>
      ))}
    </Stack>
  );
}

function MessageForm({ ticketId, kind, onSent }: { ticketId: string; kind: 'reply' | 'note'; onSent: () => unknown }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const label = kind === 'reply' ? 'Reply to the requester' : 'Internal note';
  return (
    <Box
      component="form"
      aria-label={kind === 'reply' ? 'Reply form' : 'Note form'}
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(null);
        try {
          const message = await dataProvider.addTicketMessage(ticketId, { kind, body: body.trim() });
          setBody('');
          notify(
            kind === 'note' ? 'Note added' : message.delivered === 'logged' ? 'Reply saved (mail not configured, logged)' : 'Reply sent',
            { type: 'success' },
          );
          void onSent();
        } catch (err) {
          setError(err instanceof Error ? err.message : 'Failed to send');
        } finally {
          setBusy(false);
        }
      }}
    >
      <TextField label={label} value={body} onChange={(e) => setBody(e.target.value)} multiline minRows={3} fullWidth />
      {error && (
        <Alert severity="error" variant="filled" role="alert" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
      <Button type="submit" variant={kind === 'reply' ? 'contained' : 'outlined'} disabled={!body.trim() || busy} sx={{ mt: 1 }}>
        {kind === 'reply' ? 'Send reply' : 'Add note'}
      </Button>
    </Box>
  );
}

/** What the ticket remembers of its removed generation: when, and by whom (the API's record, kept across reloads). */
function GenerationRemoved({ record }: { record: InquiryDetails }) {
  if (!record.generation_removed_at) return null;
  return (
    <Alert severity="success" variant="outlined" data-testid="generation-removed">
      Generation removed {new Date(record.generation_removed_at).toLocaleString()} by{' '}
      {record.generation_removed_by_email ?? 'a deleted account'}
    </Alert>
  );
}

/** Admin only: removes the generation an abuse report names (files included), after confirmation. */
function RemoveGenerationButton({ ticketId, onRemoved }: { ticketId: string; onRemoved: () => unknown }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [includeSource, setIncludeSource] = useState(false);
  return (
    <>
      <Button color="error" variant="contained" startIcon={<DeleteIcon />} disabled={busy} onClick={() => setOpen(true)}>
        Remove generation
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title="Remove this generation?"
        content={
          <>
            <Typography>The generation and its files are deleted for good. The owner will no longer see it.</Typography>
            <FormControlLabel
              sx={{ mt: 1 }}
              control={<Checkbox checked={includeSource} onChange={(e) => setIncludeSource(e.target.checked)} />}
              label="Also remove the photo(s) it was made from and every generation made from them"
            />
          </>
        }
        confirm="Remove"
        confirmColor="warning"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          setBusy(true);
          try {
            await dataProvider.removeReportedGeneration(ticketId, { includeSource });
            // the ticket, read again, says when and by whom; the button is not offered again
            void onRemoved();
            notify('Generation removed', { type: 'success' });
          } catch (error) {
            notify(error instanceof Error ? error.message : 'Failed to remove the generation', { type: 'error' });
          } finally {
            setBusy(false);
            setOpen(false);
          }
        }}
      />
    </>
  );
}

function InquiryDetailsView() {
  const { record, refetch } = useShowContext<InquiryDetails>();
  const canEdit = useCan('support-inquiries', 'edit');
  const canReply = useCan('support-inquiries', 'create');
  const canRemoveGeneration = useCan('generations', 'delete');
  if (!record) return null;
  return (
    <RecordContextProvider value={record}>
      <Grid container spacing={2} sx={{ p: 2 }}>
        <Grid size={{ xs: 12, md: 8 }}>
          <Card variant="outlined">
            <CardHeader
              title={`#${record.number} · ${record.subject}`}
              subheader={`From ${record.name} <${record.email}>`}
              slotProps={{
                title: { component: 'h2', variant: 'h6', sx: { overflowWrap: 'anywhere' } },
                subheader: { sx: { overflowWrap: 'anywhere' } },
              }}
            />
            <CardContent>
              <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{record.message}</Typography>
              {record.generation_id && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 2, overflowWrap: 'anywhere' }}>
                  Reported generation: {record.generation_id}
                </Typography>
              )}
              {record.image_match && record.image_match !== 'none' && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                  Found from: {IMAGE_MATCH_LABELS[record.image_match]}
                </Typography>
              )}
            </CardContent>
          </Card>
          <ReportedImage record={record as SupportInquiryDetailsDto} onChanged={refetch} />
          <Card variant="outlined" sx={{ mt: 2 }}>
            <CardHeader title="Thread" slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
            <CardContent>
              <Thread messages={record.messages ?? []} />
              {canReply && (
                <Stack spacing={2} sx={{ mt: 3 }}>
                  <Divider />
                  <MessageForm ticketId={record.id} kind="reply" onSent={refetch} />
                  <MessageForm ticketId={record.id} kind="note" onSent={refetch} />
                </Stack>
              )}
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <Card variant="outlined">
            <CardHeader title="Ticket" slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
            <CardContent>
              <Stack spacing={1.5}>
                <Stack direction="row" spacing={1}>
                  <StatusField />
                  <PriorityField />
                </Stack>
                <Typography variant="body2">
                  Kind: <KindField />
                </Typography>
                <Box>
                  <Typography variant="caption" color="text.secondary">
                    Age (answer promised within 24-48 h)
                  </Typography>
                  <AgeField />
                </Box>
                <Typography variant="caption" color="text.secondary">
                  Received {new Date(record.created_at).toLocaleString()} · updated {new Date(record.updated_at).toLocaleString()}
                </Typography>
                {canEdit && <Workflow record={record} refetch={refetch} />}
                <GenerationRemoved record={record} />
                {record.kind === 'abuse_report' && record.generation_id && !record.generation_removed_at && canRemoveGeneration && (
                  <RemoveGenerationButton ticketId={record.id} onRemoved={refetch} />
                )}
              </Stack>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </RecordContextProvider>
  );
}

/** One ticket: the message, the requester, its age against the promise, the thread, and the workflow. */
export function InquiryShow() {
  return (
    // the app bar names the page; the subject (long, on a phone) is the card's heading, where it wraps
    <Show
      title="Ticket"
      queryOptions={BANNER_ONLY}
      error={
        <ShowErrorBanner>
          <InquiryDetailsView />
        </ShowErrorBanner>
      }
      actions={false}
    >
      <InquiryDetailsView />
    </Show>
  );
}
