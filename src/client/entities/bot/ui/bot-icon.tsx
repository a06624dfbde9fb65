import {
  Book,
  Bot,
  Brain,
  Calendar,
  Camera,
  ChartLine,
  Code,
  Cog,
  Database,
  FileText,
  Globe,
  LaptopMinimal,
  Lightbulb,
  MessageCircle,
  Music,
  Newspaper,
  PlaneTakeoff,
  Search,
  Server,
  ShoppingCart,
  Utensils,
  type LucideIcon,
} from 'lucide-react';
import { type IconName } from '@shared/bots/icons';
import { iconStyle } from './icon-colors';
import { cn } from '@/lib/cn';

/** The spec's icon names (Font Awesome's) drawn with bundled lucide SVGs. */
const GLYPHS: Record<IconName, LucideIcon> = {
  utensils: Utensils,
  book: Book,
  'laptop-code': LaptopMinimal,
  newspaper: Newspaper,
  'plane-departure': PlaneTakeoff,
  lightbulb: Lightbulb,
  brain: Brain,
  'chart-line': ChartLine,
  calendar: Calendar,
  music: Music,
  camera: Camera,
  code: Code,
  'shopping-cart': ShoppingCart,
  comment: MessageCircle,
  database: Database,
  server: Server,
  globe: Globe,
  cog: Cog,
  search: Search,
  'file-alt': FileText,
  robot: Bot,
};

const SIZES = {
  sm: 'size-8 rounded-lg [&>svg]:size-4',
  md: 'size-10 rounded-xl [&>svg]:size-5',
  lg: 'size-14 rounded-2xl [&>svg]:size-7',
};

/** A bot's icon on its own colour pair; unknown names fall back to the robot. */
export function BotIcon({
  icon,
  size = 'md',
  className,
}: {
  icon: string;
  size?: keyof typeof SIZES;
  className?: string;
}) {
  const style = iconStyle(icon);
  const Glyph = GLYPHS[style.name];
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex shrink-0 items-center justify-center',
        SIZES[size],
        style.background,
        style.text,
        className,
      )}
    >
      <Glyph />
    </span>
  );
}
