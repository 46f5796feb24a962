// The KIO thumbnail plugin for .imagegallery files: runs imagegallery-thumbnailer (found on
// PATH, as the freedesktop entry is) on a local file, writing into a temporary PNG that exists
// beforehand (so the thumbnailer forks no supervising parent), and hands KIO the image. The
// thumbnailer confines itself with Landlock and seccomp; nothing of the gallery is parsed here.
#include <KIO/ThumbnailCreator>
#include <KPluginFactory>

#include <QDir>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryFile>

class ImageGalleryThumbnailCreator : public KIO::ThumbnailCreator
{
    Q_OBJECT
public:
    ImageGalleryThumbnailCreator(QObject *parent, const QVariantList &args)
        : KIO::ThumbnailCreator(parent, args)
    {
    }

    KIO::ThumbnailResult create(const KIO::ThumbnailRequest &request) override
    {
        // A remote file would have to be copied here first: KIO does that for plugins that
        // ask, and galleries are thumbnailed where they are.
        if (!request.url().isLocalFile()) {
            return KIO::ThumbnailResult::fail();
        }
        const QString program = QStandardPaths::findExecutable(QStringLiteral("imagegallery-thumbnailer"));
        if (program.isEmpty()) {
            return KIO::ThumbnailResult::fail();
        }
        QTemporaryFile output(QDir::tempPath() + QStringLiteral("/imagegallery-kde-XXXXXX.png"));
        if (!output.open()) {
            return KIO::ThumbnailResult::fail();
        }
        output.close();
        const QSize size = request.targetSize();
        const int side = qBound(1, qMax(size.width(), size.height()), 4096);
        QProcess process;
        process.setProgram(program);
        process.setArguments({QStringLiteral("-s"), QString::number(side), request.url().toLocalFile(), output.fileName()});
        process.setStandardInputFile(QProcess::nullDevice());
        process.setStandardOutputFile(QProcess::nullDevice());
        process.start();
        // The thumbnailer's own CPU limit is 30 s; a file manager should not wait that long.
        if (!process.waitForFinished(20000)) {
            process.kill();
            process.waitForFinished();
            return KIO::ThumbnailResult::fail();
        }
        if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
            return KIO::ThumbnailResult::fail();
        }
        QImage image;
        if (!image.load(output.fileName(), "PNG")) {
            return KIO::ThumbnailResult::fail();
        }
        return KIO::ThumbnailResult::pass(image);
    }
};

K_PLUGIN_CLASS_WITH_JSON(ImageGalleryThumbnailCreator, "imagegallerythumbnail.json")

#include "imagegallerythumbnail.moc"
