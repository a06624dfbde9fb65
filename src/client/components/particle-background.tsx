import { useEffect, useRef } from 'react';
import { cn } from '@/lib/cn';
import { useTheme } from '@/lib/theme';

/** Spec §9: 70 particles, linked when closer than 120 px. */
const PARTICLE_COUNT = 70;
const PARTICLE_LINK_DISTANCE_PX = 120;

interface Particle {
  x: number;
  y: number;
  vx: number;
  vy: number;
  radius: number;
}

/** Pixels per second; slow enough to stay in the background. */
const MAX_SPEED = 18;
const DOT_ALPHA = 0.45;
const LINK_ALPHA = 0.22;

function randomParticle(width: number, height: number): Particle {
  return {
    x: Math.random() * width,
    y: Math.random() * height,
    vx: (Math.random() * 2 - 1) * MAX_SPEED,
    vy: (Math.random() * 2 - 1) * MAX_SPEED,
    radius: 1 + Math.random() * 1.5,
  };
}

function move(particles: Particle[], seconds: number, width: number, height: number): void {
  for (const p of particles) {
    p.x += p.vx * seconds;
    p.y += p.vy * seconds;
    if (p.x < 0 || p.x > width) p.vx = -p.vx;
    if (p.y < 0 || p.y > height) p.vy = -p.vy;
    p.x = Math.min(Math.max(p.x, 0), width);
    p.y = Math.min(Math.max(p.y, 0), height);
  }
}

function draw(
  ctx: CanvasRenderingContext2D,
  particles: Particle[],
  color: string,
  width: number,
  height: number,
): void {
  ctx.clearRect(0, 0, width, height);
  ctx.fillStyle = color;
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  for (let i = 0; i < particles.length; i += 1) {
    const a = particles[i]!;
    for (let j = i + 1; j < particles.length; j += 1) {
      const b = particles[j]!;
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (distance >= PARTICLE_LINK_DISTANCE_PX) continue;
      ctx.globalAlpha = LINK_ALPHA * (1 - distance / PARTICLE_LINK_DISTANCE_PX);
      ctx.beginPath();
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
      ctx.stroke();
    }
  }
  ctx.globalAlpha = DOT_ALPHA;
  for (const p of particles) {
    ctx.beginPath();
    ctx.arc(p.x, p.y, p.radius, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.globalAlpha = 1;
}

/**
 * Decorative drifting particles joined by faint lines (spec §2, §9), filling the positioned parent.
 * It stops while the tab is hidden and holds one still frame when the user asks for reduced motion.
 */
export function ParticleBackground({ className }: { className?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // The colour comes from the theme's accent, read again when the theme changes.
  const theme = useTheme();

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;

    const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
    const color = getComputedStyle(canvas).color;
    let width = 0;
    let height = 0;
    let particles: Particle[] = [];
    let frame = 0;
    let last = 0;

    const render = () => draw(ctx, particles, color, width, height);

    const resize = () => {
      const rect = canvas.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) return;
      // Keep the particles spread over the new area instead of bunched in a corner.
      if (particles.length === 0) {
        particles = Array.from({ length: PARTICLE_COUNT }, () => randomParticle(rect.width, rect.height));
      } else {
        for (const p of particles) {
          p.x *= rect.width / width;
          p.y *= rect.height / height;
        }
      }
      width = rect.width;
      height = rect.height;
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      render();
    };

    const step = (time: number) => {
      // A long gap (tab switch, slow frame) would make particles jump; cap the step.
      const seconds = last ? Math.min((time - last) / 1000, 0.1) : 0;
      last = time;
      move(particles, seconds, width, height);
      render();
      frame = requestAnimationFrame(step);
    };

    const stop = () => {
      cancelAnimationFrame(frame);
      frame = 0;
      last = 0;
    };

    const start = () => {
      if (frame || document.hidden || reducedMotion.matches) return;
      frame = requestAnimationFrame(step);
    };

    const onVisibilityChange = () => (document.hidden ? stop() : start());
    const onMotionChange = () => {
      stop();
      start();
    };

    const observer = new ResizeObserver(resize);
    observer.observe(canvas);
    document.addEventListener('visibilitychange', onVisibilityChange);
    reducedMotion.addEventListener('change', onMotionChange);
    resize();
    start();

    return () => {
      stop();
      observer.disconnect();
      document.removeEventListener('visibilitychange', onVisibilityChange);
      reducedMotion.removeEventListener('change', onMotionChange);
    };
  }, [theme]);

  return (
    <canvas ref={canvasRef} aria-hidden="true" className={cn('pointer-events-none block text-primary', className)} />
  );
}
