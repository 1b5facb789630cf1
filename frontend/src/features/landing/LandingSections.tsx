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
