import FaceoffKit
print(FaceoffInfo.version)
