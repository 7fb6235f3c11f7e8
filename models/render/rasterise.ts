/** SVG to pixels with sharp (Node only; the SVG generators stay free of Node APIs). */
import sharp from 'sharp';

export interface Raster {
  readonly width: number;
  readonly height: number;
  /** RGBA, row-major. */
  readonly data: Uint8Array;
}

export async function rasterise(svg: string, width: number, height = width): Promise<Raster> {
  const { data, info } = await sharp(Buffer.from(svg), { density: 72 })
    .resize(width, height, { fit: 'fill' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

export async function svgToPng(svg: string, width: number, height = width): Promise<Buffer> {
  return sharp(Buffer.from(svg)).resize(width, height, { fit: 'fill' }).png().toBuffer();
}
