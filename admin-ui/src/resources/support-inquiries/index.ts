import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import { InquiryList } from './InquiryList';
import { InquiryShow } from './InquiryShow';

export default {
  list: InquiryList,
  show: InquiryShow,
  icon: SupportAgentIcon,
  recordRepresentation: 'subject',
  options: { label: 'Support' },
};
