import { Button, Stack, Text } from '@chakra-ui/react';
import { exportMyData } from '@fitting-room/api-client';
import { callApi, errorMessage } from '@fitting-room/shared/browser';
import { useMutation } from '@tanstack/react-query';
import { FormAlert } from '../../components/FormAlert';

/** The file name the API gives (`Content-Disposition`), or a plain one. */
function fileNameOf(response: Response | undefined): string {
  const match = /filename="([^"]+)"/.exec(response?.headers.get('Content-Disposition') ?? '');
  return match?.[1] ?? 'my-data.zip';
}

/** Hands a downloaded file to the browser's downloads. */
function save(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/**
 * "Download my data" (GET /api/me/export): a ZIP of everything the account holds, photos and
 * results included. Fetched with the session's token (a plain link would carry none), then saved.
 */
export function DownloadMyData() {
  const download = useMutation({
    mutationFn: async () => {
      const { data, response } = await callApi(exportMyData({ parseAs: 'blob' }));
      save(data as Blob, fileNameOf(response));
    },
  });
  return (
    <Stack gap="2" align="flex-start">
      <Button variant="outline" onClick={() => download.mutate()} loading={download.isPending} loadingText="Preparing your data...">
        Download my data
      </Button>
      {download.isSuccess ? (
        <Text fontSize="sm" color="fg.muted" role="status">
          Your data was downloaded: a ZIP with your photos, results and details.
        </Text>
      ) : null}
      {download.isError ? <FormAlert>{errorMessage(download.error)}</FormAlert> : null}
    </Stack>
  );
}
