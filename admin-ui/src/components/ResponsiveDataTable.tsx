import { Box, Card, CardContent, LinearProgress, Stack, useMediaQuery, type SxProps, type Theme } from '@mui/material';
import { Children, type ElementType, Fragment, isValidElement, type ReactNode } from 'react';
import {
  DataTable,
  type DataTableProps,
  FieldTitle,
  Link,
  ListNoResults,
  NumberField,
  type RaRecord,
  RecordContextProvider,
  useCreatePath,
  useListContext,
  useResourceContext,
} from 'react-admin';

/** Phones (below `sm`, 600 px): a list's rows become cards, one under the other. */
export const usePhone = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

/** What a column of DataTable says (DataTable.Col and DataTable.NumberCol props). */
interface Column {
  key: string;
  source?: string;
  label?: ReactNode;
  field?: ElementType;
  render?: (record: RaRecord) => ReactNode;
  children?: ReactNode;
  number: boolean;
}

/** The columns given to DataTable, in order (fragments and conditionals flattened). */
function columnsOf(children: ReactNode): Column[] {
  const columns: Column[] = [];
  const walk = (nodes: ReactNode) =>
    Children.forEach(nodes, (node) => {
      if (!isValidElement(node)) return;
      const props = node.props as Omit<Column, 'key' | 'number'>;
      if (node.type === Fragment) return walk(props.children);
      columns.push({ ...props, key: `${columns.length}`, number: node.type === DataTable.NumberCol });
    });
  walk(children);
  return columns;
}

/** A column's value for the record in context, as the table's cell renders it (DataTableCell). */
function Value({ column, record }: { column: Column; record: RaRecord }) {
  if (column.number && column.source) return <NumberField source={column.source} />;
  if (column.children !== undefined) return <>{column.children}</>;
  if (column.render) return <>{column.render(record)}</>;
  if (column.field) {
    const Field = column.field;
    return <Field source={column.source} />;
  }
  const value = column.source ? record[column.source] : null;
  return <>{value != null ? String(value) : null}</>;
}

/**
 * The name of a column that shows no name (a thumbnail, a row's buttons): read by screen readers in
 * the table's header, not shown (a header cell must not be empty). On a phone's cards such a column
 * has no name line: a picture goes first, buttons last.
 */
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

export function HiddenLabel({ children }: { children: string }) {
  return (
    <Box component="span" sx={visuallyHidden}>
      {children}
    </Box>
  );
}

const unlabelled = (c: Column) => c.label === '' || (isValidElement(c.label) && c.label.type === HiddenLabel);

type RowClick = DataTableProps['rowClick'];

/**
 * A list's rows as cards on a phone: the card's title (the `primary` column, a link to the record
 * when rows are clickable), then every other column as a name and its value, in the table's order;
 * columns without a name go first when they are a field (a thumbnail) and last when they hold
 * buttons. Nothing is wider than the screen: long words wrap.
 */
function RecordCards({
  columns,
  primary,
  rowClick,
  rowSx,
}: {
  columns: Column[];
  primary: string;
  rowClick?: RowClick;
  rowSx?: DataTableProps['rowSx'];
}) {
  const { data, isPending } = useListContext();
  const resource = useResourceContext();
  const createPath = useCreatePath();
  if (isPending) return <LinearProgress aria-label="Loading" sx={{ my: 2 }} />;
  if (!data?.length) return <ListNoResults resource={resource} />;

  const title = columns.find((c) => c.source === primary);
  const media = columns.filter((c) => unlabelled(c) && c.field && !c.source);
  const actions = columns.filter((c) => unlabelled(c) && !c.field);
  const named = columns.filter((c) => c !== title && !unlabelled(c));

  const linkOf = (record: RaRecord): string | null => {
    const type = typeof rowClick === 'string' ? rowClick : null;
    return type === 'show' || type === 'edit' ? createPath({ resource, id: record.id, type }) : null;
  };

  return (
    <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 1, display: 'grid', gap: 1 }}>
      {data.map((record, index) => {
        const link = linkOf(record);
        return (
          <RecordContextProvider value={record} key={record.id}>
            <Card component="li" variant="outlined" sx={{ minWidth: 0, ...((rowSx?.(record, index) ?? {}) as object) } as SxProps<Theme>}>
              <CardContent sx={{ '&:last-child': { pb: 2 } }}>
                <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1, minWidth: 0 }}>
                  {media.map((c) => (
                    <Value key={c.key} column={c} record={record} />
                  ))}
                  {title && (
                    <Box sx={{ fontWeight: 500, overflowWrap: 'anywhere', minWidth: 0 }}>
                      {link ? (
                        <Link to={link}>
                          <Value column={title} record={record} />
                        </Link>
                      ) : (
                        <Value column={title} record={record} />
                      )}
                    </Box>
                  )}
                </Stack>
                <Box
                  component="dl"
                  sx={{ display: 'grid', gridTemplateColumns: 'minmax(5.5rem, auto) 1fr', columnGap: 1.5, rowGap: 0.5, m: 0, fontSize: 14 }}
                >
                  {named.map((c) => (
                    <Fragment key={c.key}>
                      <Box component="dt" sx={{ color: 'text.secondary' }}>
                        <FieldTitle label={c.label as string | undefined} source={c.source} resource={resource} />
                      </Box>
                      <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                        <Value column={c} record={record} />
                      </Box>
                    </Fragment>
                  ))}
                </Box>
                {actions.length > 0 && (
                  <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1.5, flexWrap: 'wrap' }}>
                    {actions.map((c) => (
                      <Value key={c.key} column={c} record={record} />
                    ))}
                  </Stack>
                )}
              </CardContent>
            </Card>
          </RecordContextProvider>
        );
      })}
    </Box>
  );
}

/**
 * react-admin's DataTable on a tablet or a desktop; on a phone the same columns as cards
 * (`primary`: the source of the column that titles each card), so a list reads without scrolling
 * sideways (docs/console.md "On a phone") and every list keeps one set of columns.
 */
export function ResponsiveDataTable({ primary, ...props }: DataTableProps & { primary: string }) {
  const phone = usePhone();
  if (!phone) return <DataTable {...props} />;
  return <RecordCards columns={columnsOf(props.children)} primary={primary} rowClick={props.rowClick} rowSx={props.rowSx} />;
}
