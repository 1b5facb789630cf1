import { useCatalog } from '../catalog/useCatalog';
import { BeforeAfterGrid } from './BeforeAfterGrid';
import { FeatureTiles } from './FeatureTiles';
import { FinalCallToAction } from './FinalCallToAction';
import { HowItWorks } from './HowItWorks';
import { Testimonials } from './Testimonials';
import { VideoTryOnGrid } from './VideoTryOnGrid';

/**
 * Everything below the landing page's hero, in the product's order. A separate chunk: it loads just
 * after the first paint, so the entry bundle stays small. Categories and pictures come from the catalogue.
 *
 * The sections are laid out with the page (no `content-visibility: auto`): with placeholder heights,
 * a jump to the footer on a phone (the End key, a focus move, a fast fling) landed on estimates, and
 * the real heights then pushed the footer about 1,000 px down, away from the finger about to tap it.
 * Lighthouse's mobile run scores the same either way (`npm run bench:web`).
 */
export default function LandingSections() {
  const { data: catalog, isPending } = useCatalog();
  return (
    <>
      <HowItWorks />
      <BeforeAfterGrid catalog={catalog} loading={isPending} />
      <VideoTryOnGrid catalog={catalog} loading={isPending} />
      <FeatureTiles catalog={catalog} />
      <Testimonials />
      <FinalCallToAction />
    </>
  );
}
