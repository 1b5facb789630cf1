import { Box } from '@chakra-ui/react';
import { useCatalog } from '../catalog/useCatalog';
import { BeforeAfterGrid } from './BeforeAfterGrid';
import { FeatureTiles } from './FeatureTiles';
import { FinalCallToAction } from './FinalCallToAction';
import { HowItWorks } from './HowItWorks';
import { Testimonials } from './Testimonials';
import { VideoTryOnGrid } from './VideoTryOnGrid';
import type { ReactNode } from 'react';

/**
 * A section below the fold: the browser skips its layout and paint until it nears the viewport
 * (`content-visibility: auto`), which is most of a phone's first layout of the landing page
 * (`npm run bench:web`). Its last size is remembered once laid out, so scrolling does not jump.
 */
function BelowTheFold({ children }: { children: ReactNode }) {
  return <Box css={{ contentVisibility: 'auto', containIntrinsicSize: 'auto 720px' }}>{children}</Box>;
}

/**
 * Everything below the landing page's hero, in the product's order. A separate chunk: it loads just
 * after the first paint, so the entry bundle stays small. Categories and pictures come from the catalogue.
 */
export default function LandingSections() {
  const { data: catalog, isPending } = useCatalog();
  return (
    <>
      <BelowTheFold>
        <HowItWorks />
      </BelowTheFold>
      <BelowTheFold>
        <BeforeAfterGrid catalog={catalog} loading={isPending} />
      </BelowTheFold>
      <BelowTheFold>
        <VideoTryOnGrid catalog={catalog} loading={isPending} />
      </BelowTheFold>
      <BelowTheFold>
        <FeatureTiles catalog={catalog} />
      </BelowTheFold>
      <BelowTheFold>
        <Testimonials />
      </BelowTheFold>
      <BelowTheFold>
        <FinalCallToAction />
      </BelowTheFold>
    </>
  );
}
