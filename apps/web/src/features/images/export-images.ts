import {
  EXPORT_COLUMNS,
  EXPORT_FILE_NAME,
  EXPORT_LONG_DESCRIPTION_COLUMN,
  EXPORT_ORIGIN_COLUMN,
  EXPORT_SHEET_NAME,
} from '@altwise/contracts/limits';

export type ExportableImage = {
  src: string;
  alt_text: string;
  longDescription?: string | null;
  /** Where the alt text came from (ADR 057). */
  origin?: string;
};

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The spreadsheet of the product spec §3/§9: one sheet 'Images', columns 'Sr No' (from 1), 'URL', 'AltText';
 * and 'LongDescription' when any of the images has one (a chart's labels and values, ADR 050), then
 * 'Origin' when the images carry it (where each alt text came from, ADR 057). exceljs is loaded only when someone exports, so it stays out of the page's first chunk.
 */
export async function buildExportWorkbook(images: readonly ExportableImage[]): Promise<ArrayBuffer> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Altwise';
  const sheet = workbook.addWorksheet(EXPORT_SHEET_NAME);
  const [srNo, url, altText] = EXPORT_COLUMNS;
  sheet.columns = [
    { header: srNo, key: 'srNo', width: 8 },
    { header: url, key: 'url', width: 60 },
    { header: altText, key: 'altText', width: 80 },
    ...(images.some((image) => image.longDescription)
      ? [{ header: EXPORT_LONG_DESCRIPTION_COLUMN, key: 'longDescription', width: 100 }]
      : []),
    ...(images.some((image) => image.origin)
      ? [{ header: EXPORT_ORIGIN_COLUMN, key: 'origin', width: 14 }]
      : []),
  ];
  sheet.getRow(1).font = { bold: true };
  images.forEach((image, index) => {
    sheet.addRow({
      srNo: index + 1,
      url: image.src,
      altText: image.alt_text,
      ...(image.longDescription ? { longDescription: image.longDescription } : {}),
      ...(image.origin ? { origin: image.origin } : {}),
    });
  });
  const buffer = await workbook.xlsx.writeBuffer();
  return buffer as ArrayBuffer;
}

/** Builds the workbook and hands it to the browser as exported_images.xlsx. */
export async function exportImages(images: readonly ExportableImage[]): Promise<void> {
  const buffer = await buildExportWorkbook(images);
  const url = URL.createObjectURL(new Blob([buffer], { type: XLSX_MIME }));
  const link = document.createElement('a');
  link.href = url;
  link.download = EXPORT_FILE_NAME;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL is revoked.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
