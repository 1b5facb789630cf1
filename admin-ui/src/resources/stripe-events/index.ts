import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { StripeEventList } from './StripeEventList';

export default { list: StripeEventList, icon: ReceiptLongIcon, options: { label: 'Stripe events' } };
