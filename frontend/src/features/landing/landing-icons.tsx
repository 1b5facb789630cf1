import { Icon, type IconProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A 24x24 line icon for the landing page's steps and tiles. Decorative: the text beside it speaks. */
function lineIcon(paths: ReactNode) {
  return function LandingIcon(props: IconProps) {
    return (
      <Icon boxSize="6" aria-hidden {...props}>
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
          {paths}
        </svg>
      </Icon>
    );
  };
}

export const UploadIcon = lineIcon(
  <>
    <path d="M12 15V4" />
    <path d="m7 9 5-5 5 5" />
    <path d="M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
  </>,
);
export const HangerIcon = lineIcon(
  <>
    <path d="M10 6.5a2 2 0 1 1 2.8 1.83c-.5.22-.8.7-.8 1.25V10.5" />
    <path d="M12 10.5 3.4 16.6A1.2 1.2 0 0 0 4.1 18.8h15.8a1.2 1.2 0 0 0 .7-2.2Z" />
  </>,
);
export const SparkleIcon = lineIcon(
  <>
    <path d="M12 3.5 13.8 9a1.5 1.5 0 0 0 1 1l5.2 1.9-5.2 1.8a1.5 1.5 0 0 0-1 1L12 20.5l-1.8-5.8a1.5 1.5 0 0 0-1-1L4 11.9 9.2 10a1.5 1.5 0 0 0 1-1Z" />
  </>,
);
export const BoltIcon = lineIcon(<path d="M13 3 5 13.5h6L10 21l8-10.5h-6Z" />);
export const HdIcon = lineIcon(
  <>
    <rect x="3" y="5.5" width="18" height="13" rx="2.5" />
    <path d="M7.5 9.5v5M7.5 12h3M10.5 9.5v5M14 9.5v5h1.5a2.5 2.5 0 0 0 0-5Z" />
  </>,
);
export const ShieldIcon = lineIcon(
  <>
    <path d="M12 3.5 5 6v5.5c0 4.3 3 7.6 7 9 4-1.4 7-4.7 7-9V6Z" />
    <path d="m9 12 2 2 4-4" />
  </>,
);
export const GiftIcon = lineIcon(
  <>
    <rect x="3.5" y="8" width="17" height="4" rx="1" />
    <path d="M5 12v7.5h14V12M12 8v11.5" />
    <path d="M12 8S10.5 4 8.5 4.5 7.5 8 12 8Zm0 0s1.5-4 3.5-3.5S16.5 8 12 8Z" />
  </>,
);
export const GridIcon = lineIcon(
  <>
    <rect x="4" y="4" width="6.5" height="6.5" rx="1.5" />
    <rect x="13.5" y="4" width="6.5" height="6.5" rx="1.5" />
    <rect x="4" y="13.5" width="6.5" height="6.5" rx="1.5" />
    <rect x="13.5" y="13.5" width="6.5" height="6.5" rx="1.5" />
  </>,
);
export const PoseIcon = lineIcon(
  <>
    <circle cx="12" cy="4.5" r="2" />
    <path d="M12 7v6.5M12 13.5 8.5 20M12 13.5l3.5 6.5M6 9.5l6 1 6-2" />
  </>,
);
export const PlayIcon = lineIcon(
  <>
    <rect x="3" y="5" width="18" height="14" rx="3" />
    <path d="m10 9 5 3-5 3Z" />
  </>,
);
export const DownloadIcon = lineIcon(
  <>
    <path d="M12 4v11" />
    <path d="m7 10 5 5 5-5" />
    <path d="M5 20h14" />
  </>,
);
