import { Chip, Stack, Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';

export type InquiryStatus = 'open' | 'in_progress' | 'resolved' | 'closed';
export type InquiryPriority = 'low' | 'normal' | 'high' | 'urgent';

export interface InquiryRecord {
  id: string;
  /** the ticket number people quote (#1042) */
  number: number;
  status: InquiryStatus;
  priority: InquiryPriority;
  kind: 'question' | 'billing' | 'abuse_report';
  subject: string;
  message: string;
  name: string;
  email: string;
  generation_id: string | null;
  /** how an abuse report found its generation (candidates: an admin chooses among the results its copy looked like) */
  image_match?: 'id' | 'link' | 'metadata' | 'hash' | 'candidates' | 'chosen' | 'none' | null;
  /** when this ticket removed the generation it names (then it is not offered again) */
  generation_removed_at?: string | null;
  created_at: string;
  updated_at: string;
  age_hours: number;
  sla: 'ok' | 'due_soon' | 'overdue' | null;
}

export const STATUS_CHOICES = [
  { id: 'open', name: 'Open' },
  { id: 'in_progress', name: 'In progress' },
  { id: 'resolved', name: 'Resolved' },
  { id: 'closed', name: 'Closed' },
];
export const PRIORITY_CHOICES = [
  { id: 'low', name: 'Low' },
  { id: 'normal', name: 'Normal' },
  { id: 'high', name: 'High' },
  { id: 'urgent', name: 'Urgent' },
];
export const KIND_CHOICES = [
  { id: 'question', name: 'Question' },
  { id: 'billing', name: 'Billing' },
  { id: 'abuse_report', name: 'Abuse report' },
];

const nameOf = (choices: { id: string; name: string }[], id: string | undefined) => choices.find((c) => c.id === id)?.name ?? id ?? '';

/** Status as a chip; open is destructive (docs/product.md). */
export function StatusField(_props: { source?: string }) {
  const record = useRecordContext<InquiryRecord>();
  if (!record) return null;
  const color =
    record.status === 'open' ? 'error' : record.status === 'in_progress' ? 'warning' : record.status === 'resolved' ? 'success' : 'default';
  return (
    <Chip
      size="small"
      label={nameOf(STATUS_CHOICES, record.status)}
      color={color}
      variant={record.status === 'open' ? 'filled' : 'outlined'}
      data-testid="inquiry-status"
    />
  );
}

export function PriorityField(_props: { source?: string }) {
  const record = useRecordContext<InquiryRecord>();
  if (!record) return null;
  const urgent = record.priority === 'urgent' || record.priority === 'high';
  return <Chip size="small" label={nameOf(PRIORITY_CHOICES, record.priority)} color={urgent ? 'warning' : 'default'} variant="outlined" />;
}

export function KindField(_props: { source?: string }) {
  const record = useRecordContext<InquiryRecord>();
  return record ? <>{nameOf(KIND_CHOICES, record.kind)}</> : null;
}

const SLA = {
  ok: { label: 'Within 24 h', color: 'success' },
  due_soon: { label: 'Due soon (24-48 h)', color: 'warning' },
  overdue: { label: 'Overdue (over 48 h)', color: 'error' },
} as const;

export function formatAge(hours: number): string {
  if (hours < 1) return 'under 1 h';
  if (hours < 48) return `${Math.floor(hours)} h`;
  return `${Math.floor(hours / 24)} d ${Math.floor(hours % 24)} h`;
}

/** The age of an open ticket against the 24-48 h answer promise (the API's `sla`). */
export function AgeField(_props: { source?: string }) {
  const record = useRecordContext<InquiryRecord>();
  if (!record) return null;
  const sla = record.sla ? SLA[record.sla] : null;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Typography variant="body2">{formatAge(record.age_hours)}</Typography>
      {sla && <Chip size="small" label={sla.label} color={sla.color} variant="outlined" />}
    </Stack>
  );
}
