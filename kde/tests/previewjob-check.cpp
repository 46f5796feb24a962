// A KIO::PreviewJob over the files named, as Dolphin asks for its previews, with the plugins
// KIO enables by default (or those named in IMAGEGALLERY_PREVIEW_PLUGINS, comma-separated).
// Prints one line per file: `PATH ok WIDTH HEIGHT` or `PATH failed`.
#include <KFileItem>
#include <KIO/PreviewJob>

#include <QApplication>
#include <QFileInfo>
#include <QPixmap>
#include <QTextStream>
#include <QUrl>

int main(int argc, char **argv)
{
    QApplication application(argc, argv);
    KFileItemList items;
    for (int i = 1; i < argc; ++i) {
        items.append(KFileItem(QUrl::fromLocalFile(QFileInfo(QString::fromLocal8Bit(argv[i])).absoluteFilePath())));
    }
    const QByteArray named = qgetenv("IMAGEGALLERY_PREVIEW_PLUGINS");
    const QStringList plugins = named.isEmpty() ? KIO::PreviewJob::defaultPlugins() : QString::fromUtf8(named).split(QLatin1Char(','));
    QTextStream out(stdout);
    auto *job = new KIO::PreviewJob(items, QSize(128, 128), &plugins);
    QObject::connect(job, &KIO::PreviewJob::gotPreview, [&out](const KFileItem &item, const QPixmap &preview) {
        out << item.localPath() << " ok " << preview.width() << " " << preview.height() << Qt::endl;
    });
    QObject::connect(job, &KIO::PreviewJob::failed, [&out](const KFileItem &item) {
        out << item.localPath() << " failed" << Qt::endl;
    });
    QObject::connect(job, &KJob::result, &application, &QApplication::quit);
    job->start();
    return application.exec();
}
