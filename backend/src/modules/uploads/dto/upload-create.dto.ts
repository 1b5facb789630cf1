import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { UPLOAD_MESSAGES } from '../image-intake';

/** The form fields of POST /api/uploads besides the files (multipart sends text). */
export class UploadCreateDto {
  @ApiProperty({
    enum: ['true'],
    description: 'required: the person confirms, for this batch, that the photos show themselves and that they are 18 or older',
  })
  @IsIn(['true', true], { message: UPLOAD_MESSAGES.confirm })
  confirm_own_photos: string;
}
