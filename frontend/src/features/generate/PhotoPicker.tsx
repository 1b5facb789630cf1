import { Box, Center, chakra, Checkbox, Field, IconButton, SimpleGrid, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { type DragEvent, type RefObject, useId, useRef, useState } from 'react';
import { CloseIcon, PlusIcon, UploadIcon } from '../../components/icons';
import { CONFIRM_PHOTOS_LABEL, PHOTO_RULES } from './photo-rules';

/** A photo chosen in this browser: its preview, and its upload id once uploaded. */
export interface PhotoEntry {
  key: string;
  file: File;
  previewUrl: string;
  uploadId?: string | undefined;
}

interface PhotoPickerProps {
  photos: PhotoEntry[];
  onAdd(files: File[]): void;
  onRemove(key: string): void;
  confirmed: boolean;
  onConfirmedChange(confirmed: boolean): void;
  confirmError: string | null;
  confirmRef: RefObject<HTMLInputElement | null>;
  disabled: boolean;
}

const tileCss = {
  aspectRatio: '3 / 4',
  borderRadius: 'lg',
  overflow: 'hidden',
} as const;

/**
 * The upload area (docs/product.md): click (or drop) to add up to 5 photos, previews with a
 * remove button each, an "Add More" tile, and the confirmation that the photos show the person
 * and that they are 18 or older (docs/product.md: once per upload batch).
 */
export function PhotoPicker({
  photos,
  onAdd,
  onRemove,
  confirmed,
  onConfirmedChange,
  confirmError,
  confirmRef,
  disabled,
}: PhotoPickerProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  const full = photos.length >= PHOTO_RULES.maxPhotos;

  const openPicker = () => inputRef.current?.click();
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) onAdd([...event.dataTransfer.files]);
  };
  const dropHandlers = {
    onDragOver: (event: DragEvent) => {
      event.preventDefault();
      setDragging(true);
    },
    onDragLeave: () => setDragging(false),
    onDrop,
  };

  return (
    <Stack gap="4">
      <input
        ref={inputRef}
        type="file"
        accept={PHOTO_RULES.types.join(',')}
        multiple
        hidden
        aria-label="Upload photos"
        disabled={disabled}
        onChange={(event) => {
          onAdd([...(event.target.files ?? [])]);
          event.target.value = ''; // the same file can be chosen again after a removal
        }}
      />
      {photos.length === 0 ? (
        <chakra.button
          type="button"
          onClick={openPicker}
          disabled={disabled}
          aria-describedby={hintId}
          display="flex"
          flexDirection="column"
          alignItems="center"
          justifyContent="center"
          gap="2"
          w="full"
          minH="48"
          px="6"
          py="8"
          borderWidth="2px"
          borderStyle="dashed"
          borderColor={dragging ? 'brand.solid' : 'border'}
          borderRadius="xl"
          bg={dragging ? 'brand.subtle' : 'bg.subtle'}
          cursor="pointer"
          transition="background 0.15s, border-color 0.15s"
          _hover={{ borderColor: 'brand.emphasized', bg: 'brand.subtle' }}
          _disabled={{ cursor: 'not-allowed', opacity: 0.6 }}
          {...dropHandlers}
        >
          <Center boxSize="12" borderRadius="full" bg="bg.panel" color="brand.solid" boxShadow="xs">
            <UploadIcon boxSize="5" />
          </Center>
          <Text fontWeight="semibold">Click to upload</Text>
          <Text id={hintId} fontSize="sm" color="fg.muted" textAlign="center">
            Up to {PHOTO_RULES.maxPhotos} photos of yourself · JPEG, PNG or WebP · under 10MB each
          </Text>
        </chakra.button>
      ) : (
        <Box
          {...dropHandlers}
          borderRadius="xl"
          outline={dragging ? '2px dashed' : undefined}
          outlineColor="brand.solid"
          outlineOffset="4px"
        >
          <SimpleGrid as="ul" listStyle="none" columns={3} gap="2" aria-label="Your photos">
            {photos.map((photo, index) => (
              <Box as="li" key={photo.key} position="relative" css={tileCss} bg="bg.muted">
                <img
                  src={photo.previewUrl}
                  alt={`Your photo ${index + 1}`}
                  width={300}
                  height={400}
                  style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
                />
                <IconButton
                  aria-label={`Remove photo ${index + 1}`}
                  size="2xs"
                  variant="solid"
                  colorPalette="gray"
                  bg="blackAlpha.700"
                  _hover={{ bg: 'blackAlpha.800' }}
                  borderRadius="full"
                  position="absolute"
                  top="1.5"
                  right="1.5"
                  disabled={disabled}
                  onClick={() => onRemove(photo.key)}
                >
                  <CloseIcon boxSize="3" />
                </IconButton>
              </Box>
            ))}
            {full ? null : (
              <li>
                <chakra.button
                  type="button"
                  onClick={openPicker}
                  disabled={disabled}
                  css={tileCss}
                  w="full"
                  display="flex"
                  flexDirection="column"
                  alignItems="center"
                  justifyContent="center"
                  gap="1"
                  borderWidth="2px"
                  borderStyle="dashed"
                  borderColor="border"
                  bg="bg.subtle"
                  color="fg.muted"
                  fontSize="sm"
                  fontWeight="medium"
                  cursor="pointer"
                  _hover={{ borderColor: 'brand.emphasized', color: 'brand.fg', bg: 'brand.subtle' }}
                  _disabled={{ cursor: 'not-allowed', opacity: 0.6 }}
                >
                  <PlusIcon boxSize="5" />
                  Add More
                  <VisuallyHidden>
                    {' '}
                    photos ({photos.length} of {PHOTO_RULES.maxPhotos})
                  </VisuallyHidden>
                </chakra.button>
              </li>
            )}
          </SimpleGrid>
          <Text fontSize="xs" color="fg.muted" mt="2">
            {photos.length} of {PHOTO_RULES.maxPhotos} photos
          </Text>
        </Box>
      )}
      <Field.Root invalid={Boolean(confirmError)} required>
        <Checkbox.Root
          checked={confirmed}
          onCheckedChange={(details) => onConfirmedChange(details.checked === true)}
          alignItems="flex-start"
          disabled={disabled}
        >
          <Checkbox.HiddenInput ref={confirmRef} />
          <Checkbox.Control mt="0.5" />
          <Checkbox.Label fontWeight="normal">{CONFIRM_PHOTOS_LABEL}</Checkbox.Label>
        </Checkbox.Root>
        {confirmError ? <Field.ErrorText>{confirmError}</Field.ErrorText> : null}
      </Field.Root>
    </Stack>
  );
}
