import { Inject, Injectable, Module } from '@nestjs/common';
import { IMAGE_WORK_GATE, type WorkGate } from '../../common/concurrency';
import { asCatalogueError, cleanCopy, inspectPhoto, type AcceptedPhoto } from './image-intake';

/**
 * One photo through the uploads' intake (type sniffing, size limits, a clean re-encoded copy) that
 * nobody's account owns: the catalogue's garment and scene photos. A module of its own, with no
 * imports, so the catalogue can use it without depending on the uploads module (which depends on
 * the AI provider, which depends on the catalogue).
 */
@Injectable()
export class PhotoIntakeService {
  constructor(@Inject(IMAGE_WORK_GATE) private readonly imageWork: WorkGate) {}

  async acceptOne(bytes: Buffer): Promise<AcceptedPhoto> {
    const inspected = await asCatalogueError(() => inspectPhoto(bytes));
    return this.imageWork.run(() => asCatalogueError(() => cleanCopy(bytes, inspected)));
  }
}

@Module({ providers: [PhotoIntakeService], exports: [PhotoIntakeService] })
export class PhotoIntakeModule {}
