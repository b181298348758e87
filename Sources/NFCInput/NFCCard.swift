import CNfc
